import { icon } from './icons';

// The icons of what the page shows after its first render (toasts, the quantity stepper, field
// errors), apart from those of the first render: they load with that code, not on the first load.

export const AlertIcon = icon(
  <>
    <circle cx="12" cy="12" r="10" />
    <path d="M12 7v6M12 17h.01" />
  </>,
);

export const InfoIcon = icon(
  <>
    <circle cx="12" cy="12" r="10" />
    <path d="M12 11v6M12 7h.01" />
  </>,
);

export const CloseIcon = icon(<path d="M18 6 6 18M6 6l12 12" />);

export const MinusIcon = icon(<path d="M5 12h14" />);

export const PlusIcon = icon(<path d="M12 5v14M5 12h14" />);
