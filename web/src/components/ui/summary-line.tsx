import type { ReactNode } from 'react';

/** One "label: value" row of a summary list (`<dl className="summary__lines">`). */
export function SummaryLine({
  label,
  children,
  total = false,
}: {
  label: string;
  children: ReactNode;
  total?: boolean;
}) {
  return (
    <div className={total ? 'summary__line summary__line--total' : 'summary__line'}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
