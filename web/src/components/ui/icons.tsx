import type { ReactNode } from 'react';

// Small inline icons: no icon font or library, so nothing extra to download. All decorative:
// the text next to them carries the meaning.
export interface IconProps {
  className?: string;
}

/**
 * An icon drawing `shapes` on the shared 24-unit stroked canvas. Called once per icon at module
 * level, so each icon stays one component for the life of the page.
 */
export function icon(shapes: ReactNode) {
  return ({ className }: IconProps) => (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      viewBox="0 0 24 24"
      width="20"
      height="20"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {shapes}
    </svg>
  );
}

export const CheckIcon = icon(<path d="M20 6 9 17l-5-5" />);

export const TruckIcon = icon(
  <>
    <path d="M3 6h11v10H3zM14 10h4l3 3v3h-7" />
    <circle cx="7" cy="18" r="2" />
    <circle cx="17" cy="18" r="2" />
  </>,
);

export const LockIcon = icon(
  <>
    <rect x="4" y="11" width="16" height="10" rx="2" />
    <path d="M8 11V7a4 4 0 0 1 8 0v4" />
  </>,
);
