import { Fragment, type ReactNode, useEffect, useRef } from 'react';

interface FocusHeadingProps {
  children?: ReactNode;
  /** The heading's lines instead of `children`: each kept whole when the heading wraps. */
  lines?: readonly string[];
  level?: 1 | 2;
  className?: string;
}

/**
 * A heading that takes focus when it appears. Used where a view replaces another without a route
 * change, so screen reader and keyboard users land on the new content instead of nowhere.
 */
export function FocusHeading({ children, lines, level = 1, className }: FocusHeadingProps) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <Heading ref={ref} tabIndex={-1} className={className}>
      {lines?.map((line, index) => (
        <Fragment key={line}>
          {index > 0 && ' '}
          <span className="heading-line">{line}</span>
        </Fragment>
      )) ?? children}
    </Heading>
  );
}
