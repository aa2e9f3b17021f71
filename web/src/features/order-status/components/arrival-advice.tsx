import { useId } from 'react';
import { liveArrivalStatement } from '../../../../../shared/live-animals';

/** Once dispatched: what to do when the live animals arrive, and what if something is wrong. */
export function ArrivalAdvice({
  advice,
  reference,
  email,
}: {
  advice: readonly string[];
  reference: string;
  email: string;
}) {
  const headingId = useId();
  return (
    <section className="card card--info" aria-labelledby={headingId}>
      <h2 id={headingId}>When your parcel arrives</h2>
      {advice.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      <p>{liveArrivalStatement(email, reference)}</p>
    </section>
  );
}
