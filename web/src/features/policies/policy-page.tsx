import { Link } from 'react-router-dom';
import { useAppConfig } from '../../lib/app-context';
import { SELLER } from '../../lib/seller';
import { contactPage, type PolicyDocument, privacyNotice, termsOfSale } from './policy-wording';
import { SellerDetails } from './seller-details';

function PolicyView({ document, children }: { document: PolicyDocument; children?: React.ReactNode }) {
  return (
    <article className="card policy">
      <title>{`${document.title} · ${SELLER.shopName}`}</title>
      <h1>{document.title}</h1>
      <p>{document.intro}</p>
      {children}
      {document.sections.map((section) => (
        <section key={section.heading}>
          <h2>{section.heading}</h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
      ))}
      <p>
        <Link to="/">Back to the shop</Link>
      </p>
    </article>
  );
}

export function PrivacyPage() {
  return <PolicyView document={privacyNotice(SELLER)} />;
}

export function TermsPage() {
  const { dispatchCutoffHours } = useAppConfig();
  return <PolicyView document={termsOfSale(SELLER, dispatchCutoffHours)} />;
}

export function ContactPage() {
  return (
    <PolicyView document={contactPage(SELLER)}>
      <SellerDetails seller={SELLER} />
    </PolicyView>
  );
}
