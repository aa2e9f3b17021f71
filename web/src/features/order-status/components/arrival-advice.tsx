import { liveArrivalStatement } from '../../../../../shared/live-animals';
import { TitledCard } from '../../../components/ui/titled-card';

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
  return (
    <TitledCard heading="When your parcel arrives" info>
      {advice.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      <p>{liveArrivalStatement(email, reference)}</p>
    </TitledCard>
  );
}
