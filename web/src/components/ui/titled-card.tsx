import { type ReactNode, useId } from 'react';

/**
 * A card of the page under its own `<h2>`, which names the section for assistive technology.
 * `info`: the tinted card of advice. `busy`: while what it shows is being replaced (a change on
 * its way to the server).
 */
export function TitledCard({
  heading,
  info = false,
  busy,
  children,
}: {
  heading: ReactNode;
  info?: boolean;
  busy?: boolean;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section className={info ? 'card card--info' : 'card'} aria-labelledby={headingId} aria-busy={busy}>
      <h2 id={headingId}>{heading}</h2>
      {children}
    </section>
  );
}
