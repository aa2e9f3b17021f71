import type { TimelineStep } from '../../../../../shared/order-page';
import { TitledCard } from '../../../components/ui/titled-card';

/** The order's life so far, oldest first, in the words the server chose (order-page.ts). */
export function OrderTimeline({ steps }: { steps: readonly TimelineStep[] }) {
  return (
    <TitledCard heading="Progress">
      <ol className="info-list timeline">
        {steps.map((step) => (
          <li key={step.title}>
            <p className="info-ack">{step.title}</p>
            {step.detail ? <p>{step.detail}</p> : null}
            {step.link ? (
              // A new tab with no referrer: Royal Mail learns nothing of this page's address.
              <a href={step.link.href} target="_blank" rel="noreferrer">
                {step.link.text} <span className="visually-hidden">(opens in a new tab)</span>
              </a>
            ) : null}
          </li>
        ))}
      </ol>
    </TitledCard>
  );
}
