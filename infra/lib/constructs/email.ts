import { Stack } from 'aws-cdk-lib';
import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { IPublicHostedZone } from 'aws-cdk-lib/aws-route53';
import {
  ConfigurationSet,
  ConfigurationSetTlsPolicy,
  EmailIdentity,
  EmailSendingEvent,
  EventDestination,
  Identity,
  SuppressionReasons,
} from 'aws-cdk-lib/aws-ses';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';

/** The only SES actions the functions use: the v1 SendEmail of `@aws-sdk/client-ses`, and its raw variant. */
export const SEND_EMAIL_ACTIONS = ['ses:SendEmail', 'ses:SendRawEmail'] as const;

/** Props of {@link ShopEmail}. */
export interface ShopEmailProps {
  /** The From address of confirmations and notices. */
  readonly senderEmail: string;
  /** Receives a notice for every new order. */
  readonly merchantEmail: string;
  /**
   * Public hosted zone of the sender's domain. When its name is exactly the sender's domain the
   * whole domain is verified with Easy DKIM (records written by the stack); otherwise only the
   * sender address is verified, by a link SES mails to it.
   */
  readonly hostedZone?: IPublicHostedZone;
  /** Receives bounces, complaints and rejections, so the merchant hears of an order email that never arrived. */
  readonly deliveryProblemsTopic?: ITopic;
}

/**
 * SES for the shop: the sender identity, the merchant's address (so notices reach it while the
 * account is still in the SES sandbox), and a configuration set that requires TLS, keeps the
 * account's suppression list for bounces and complaints, and reports delivery problems.
 */
export class ShopEmail extends Construct {
  readonly senderIdentity: EmailIdentity;
  readonly configurationSet: ConfigurationSet;
  private readonly sendResourceArns: string[];

  constructor(scope: Construct, id: string, props: ShopEmailProps) {
    super(scope, id);

    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      tlsPolicy: ConfigurationSetTlsPolicy.REQUIRE,
      suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS,
      reputationMetrics: true,
      sendingEnabled: true,
    });
    if (props.deliveryProblemsTopic !== undefined) {
      this.configurationSet.addEventDestination('DeliveryProblems', {
        destination: EventDestination.snsTopic(props.deliveryProblemsTopic),
        events: [
          EmailSendingEvent.BOUNCE,
          EmailSendingEvent.COMPLAINT,
          EmailSendingEvent.REJECT,
          EmailSendingEvent.RENDERING_FAILURE,
        ],
      });
    }

    const senderDomain = domainOf(props.senderEmail);
    const senderZone = props.hostedZone?.zoneName === senderDomain ? props.hostedZone : undefined;
    this.senderIdentity = new EmailIdentity(this, 'SenderIdentity', {
      identity:
        senderZone === undefined ? Identity.email(props.senderEmail) : Identity.publicHostedZone(senderZone),
      // Sends that name no configuration set still get TLS, suppression and problem reports.
      configurationSet: this.configurationSet,
    });

    const merchantCovered =
      props.merchantEmail.toLowerCase() === props.senderEmail.toLowerCase() ||
      (senderZone !== undefined && domainOf(props.merchantEmail) === senderDomain);
    if (!merchantCovered) {
      // In the sandbox SES only delivers to verified addresses; verifying the merchant's lets the
      // shop be tested end to end before production access is granted.
      new EmailIdentity(this, 'MerchantIdentity', { identity: Identity.email(props.merchantEmail) });
    }

    const sesArn = (resource: string, resourceName: string): string =>
      Stack.of(this).formatArn({ service: 'ses', resource, resourceName });
    this.sendResourceArns = [
      this.senderIdentity.emailIdentityArn,
      // In the sandbox SES also authorises the send against the recipient's identity.
      sesArn('identity', props.merchantEmail),
      sesArn('configuration-set', this.configurationSet.configurationSetName),
    ];
  }

  /** Lets a function send as the shop's sender through its configuration set, and nothing else in SES. */
  grantSend(grantee: IGrantable): Grant {
    return Grant.addToPrincipal({
      grantee,
      actions: [...SEND_EMAIL_ACTIONS],
      resourceArns: this.sendResourceArns,
    });
  }
}

function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}
