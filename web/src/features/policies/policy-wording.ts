import { liveArrivalStatement, NO_CANCELLATION_STATEMENT } from '../../../../shared/live-animals';
import { formatGbp } from '../../../../shared/pricing';
import { DAPHNIA, PRODUCT_NAME, SHIPPING_PENCE } from '../../../../shared/product';
import { formatWeeklyCutoff } from '../../lib/dispatch-wording';
import type { Seller } from '../../lib/seller';

/**
 * The wording of the privacy notice, terms and contact page, in one place for the merchant to
 * edit (and to have reviewed). Seller details come from configuration, never from this file.
 */
export interface PolicySection {
  heading: string;
  paragraphs: readonly string[];
}

export interface PolicyDocument {
  title: string;
  intro: string;
  sections: readonly PolicySection[];
}

export function privacyNotice(seller: Seller): PolicyDocument {
  return {
    title: 'Privacy notice',
    intro: `${seller.name} ("we") is the controller of the personal data you give when you order from ${seller.shopName}. This notice says what we collect, why, who sees it and your rights under UK data protection law (UK GDPR and the Data Protection Act 2018).`,
    sections: [
      {
        heading: 'What we collect',
        paragraphs: [
          'Your name, email address, delivery address and postcode, and your phone number if you give it; what you ordered and what you paid. Card details go straight to Stripe, our payment provider: we never see or store them.',
        ],
      },
      {
        heading: 'Why, and on what basis',
        paragraphs: [
          'To take, deliver and support your order, and to email you about it: this is needed to perform our contract with you. We keep order records to meet our tax and accounting duties (a legal obligation). We do not send marketing and do not sell or share your data for advertising.',
        ],
      },
      {
        heading: 'Who sees it',
        paragraphs: [
          'Stripe (payment), Amazon Web Services (hosting, order storage and email, in the UK and EU) and the courier that delivers your order (your name, address and, if given, phone number). Each acts on our instructions or under its own legal duties.',
        ],
      },
      {
        heading: 'How long we keep it',
        paragraphs: [
          'Order records for six years after the end of the financial year of the order, as tax law requires; then they are deleted.',
        ],
      },
      {
        heading: 'On your device',
        paragraphs: [
          'This site sets no cookies and runs no tracking. While you check out, the details you typed are kept in this browser tab only (session storage), so they are still there if you come back from the payment page; they are removed when your payment succeeds or the tab is closed.',
        ],
      },
      {
        heading: 'Your rights',
        paragraphs: [
          `You may ask for a copy of your data, and ask us to correct, delete or restrict it, or object to how we use it. Email ${seller.email}. If you are unhappy with our answer you can complain to the Information Commissioner's Office (ico.org.uk, 0303 123 1113).`,
        ],
      },
    ],
  };
}

export function termsOfSale(seller: Seller, dispatchCutoffHours: number): PolicyDocument {
  return {
    title: 'Terms of sale',
    intro: `These terms apply to orders placed on ${seller.shopName}, sold by ${seller.name}, ${seller.address} (${seller.email}).`,
    sections: [
      {
        heading: 'What we sell and the price',
        paragraphs: [
          `${PRODUCT_NAME} (live), in ${DAPHNIA.bottleSize} bottles of about ${DAPHNIA.countMin} to ${DAPHNIA.countMax} animals, in packs of ${DAPHNIA.min}, ${DAPHNIA.min * 2} or ${DAPHNIA.max} bottles at ${formatGbp(DAPHNIA.unitPricePence)} a bottle, plus UK delivery of ${formatGbp(SHIPPING_PENCE)} per order. Prices include any VAT. Counts are estimates: live, natural stock varies.`,
        ],
      },
      {
        heading: 'Your order',
        paragraphs: [
          'You pay on Stripe’s secure payment page. Our contract starts when your payment is accepted; we then email you a confirmation with your order reference. If an unforeseen supply issue means we cannot send your order, we will refund you in full.',
        ],
      },
      {
        heading: 'Delivery',
        paragraphs: [
          `We deliver to addresses in Great Britain and Northern Ireland only. We dispatch on Mondays (or the first working day of the week when Monday is a bank holiday); orders placed after ${formatWeeklyCutoff(dispatchCutoffHours)} before a Monday dispatch go out the following week (the order page shows the exact cut-off). Most orders arrive the day after dispatch. Freezing or extreme weather delays dispatch until it is safe for live animals to travel; we email you if it does.`,
        ],
      },
      {
        heading: 'Live animals: cancellation and problems on arrival',
        paragraphs: [NO_CANCELLATION_STATEMENT, liveArrivalStatement(seller.email)],
      },
      {
        heading: 'The law',
        paragraphs: [
          'These terms are governed by the law of England and Wales. If you live in Scotland or Northern Ireland you may also bring proceedings there. Nothing in these terms affects your statutory rights.',
        ],
      },
    ],
  };
}

export function contactPage(seller: Seller): PolicyDocument {
  return {
    title: 'Contact us',
    intro: `${seller.shopName} is run by ${seller.name}. Email is the quickest way to reach us; we answer within one working day.`,
    sections: [
      {
        heading: 'A problem with a delivery',
        paragraphs: [
          'Please write on the day your order arrives if you can, with your order reference (in your confirmation email) and a photo of the bottles.',
        ],
      },
    ],
  };
}
