import { CfnOutput, Stack } from 'aws-cdk-lib';
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
import type { SES_IDENTITY_MODES } from '../../../shared/stage-config';

/** The only SES actions the functions use: the v1 SendEmail of `@aws-sdk/client-ses`, and its raw variant. */
export const SEND_EMAIL_ACTIONS = ['ses:SendEmail', 'ses:SendRawEmail'] as const;

/** How SES identities are obtained (see `sesIdentity` in config.ts). */
export type SesIdentityMode = (typeof SES_IDENTITY_MODES)[number];

export interface ShopEmailProps {
  /** `domain` (Easy DKIM), `address` (by link) or `existing` (verified already). @default 'domain' */
  readonly identityMode?: SesIdentityMode;
  /** The From address of confirmations and notices. */
  readonly senderEmail: string;
  /** Receives a notice for every new order. */
  readonly merchantEmail: string;
  /** Where the DKIM records go when its name is the sender's domain; otherwise they are outputs. */
  readonly hostedZone?: IPublicHostedZone;
  /** Receives bounces, complaints and rejections, so the merchant hears of an order email that never arrived. */
  readonly deliveryProblemsTopic?: ITopic;
}

/**
 * SES for the shop: the sender, the merchant's address (reached from the sandbox), and a configuration
 * set requiring TLS, suppressing bounces and complaints, and reporting delivery problems.
 */
export class ShopEmail extends Construct {
  /** The sender identity this stack created; undefined in `existing` mode. */
  readonly senderIdentity: EmailIdentity | undefined;
  readonly configurationSet: ConfigurationSet;
  private readonly sendResourceArns: string[];

  constructor(scope: Construct, id: string, props: ShopEmailProps) {
    super(scope, id);
    const mode = props.identityMode ?? 'domain';

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
    const sesArn = (resource: string, resourceName: string): string =>
      Stack.of(this).formatArn({ service: 'ses', resource, resourceName });

    if (mode === 'existing') {
      this.senderIdentity = undefined;
      // Which of the two was verified is not known here; SES authorises a send against the
      // address identity when it exists, else against the domain's.
      this.sendResourceArns = [sesArn('identity', props.senderEmail), sesArn('identity', senderDomain)];
    } else {
      this.senderIdentity = new EmailIdentity(this, 'SenderIdentity', {
        identity:
          mode === 'address'
            ? Identity.email(props.senderEmail)
            : senderZone !== undefined
              ? Identity.publicHostedZone(senderZone)
              : Identity.domain(senderDomain),
        // Sends that name no configuration set still get TLS, suppression and problem reports.
        configurationSet: this.configurationSet,
      });
      if (mode === 'domain' && senderZone === undefined) {
        // Any DNS provider: the three Easy DKIM CNAMEs, to be added by hand.
        this.senderIdentity.dkimRecords.forEach((record, index) => {
          const n = index + 1;
          new CfnOutput(Stack.of(this), `DkimRecord${n}Name`, {
            value: record.name,
            description: `Easy DKIM: add a CNAME record with this name at your DNS provider (${n} of 3)`,
          });
          new CfnOutput(Stack.of(this), `DkimRecord${n}Value`, {
            value: record.value,
            description: `Easy DKIM: the value of CNAME record ${n}`,
          });
        });
      }
      this.sendResourceArns = [this.senderIdentity.emailIdentityArn];
    }

    const merchantCovered =
      props.merchantEmail.toLowerCase() === props.senderEmail.toLowerCase() ||
      (mode === 'domain' && domainOf(props.merchantEmail) === senderDomain);
    if (mode !== 'existing' && !merchantCovered) {
      // In the sandbox SES only delivers to verified addresses; verifying the merchant's lets the
      // shop be tested end to end before production access is granted.
      new EmailIdentity(this, 'MerchantIdentity', { identity: Identity.email(props.merchantEmail) });
    }

    this.sendResourceArns.push(
      // In the sandbox SES also authorises the send against the recipient's identity.
      sesArn('identity', props.merchantEmail),
      sesArn('configuration-set', this.configurationSet.configurationSetName),
    );
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
