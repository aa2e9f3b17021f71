import { fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ActionReportView } from '../../../../web/src/features/admin/admin-ui';

// A new report is scrolled back into view each time the page's height changes while its view
// reloads (the week's read can take seconds), until the merchant scrolls, taps or types.

/** A ResizeObserver jsdom lacks: it records what it watches and lets the test call it back. */
class FakeResizeObserver {
  static last: FakeResizeObserver | undefined;
  watching = false;
  constructor(readonly callback: () => void) {
    FakeResizeObserver.last = this;
  }
  observe() {
    this.watching = true;
  }
  disconnect() {
    this.watching = false;
  }
}

describe('ActionReportView keeps a new report in view while the page settles', () => {
  let scrolls: number;
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('ResizeObserver', FakeResizeObserver);
    scrolls = 0;
    Element.prototype.scrollIntoView = () => {
      scrolls += 1;
    };
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    FakeResizeObserver.last = undefined;
    // jsdom has none: the files sharing this process must not see ours.
    Reflect.deleteProperty(Element.prototype, 'scrollIntoView');
  });

  it('brings it back after a reload 10 s later, and stops once 20 s have passed', () => {
    render(<ActionReportView report={{ kind: 'done', message: '2 orders marked dispatched.' }} />);
    expect(scrolls).toBe(1);
    const observer = FakeResizeObserver.last;

    vi.advanceTimersByTime(10_000);
    expect(observer?.watching).toBe(true);
    observer?.callback();
    expect(scrolls).toBe(2);

    vi.advanceTimersByTime(10_000);
    expect(observer?.watching).toBe(false);
  });

  it('stops at the merchant’s first tap', () => {
    render(<ActionReportView report={{ kind: 'done', message: '2 orders marked dispatched.' }} />);

    fireEvent.pointerDown(window);

    expect(FakeResizeObserver.last?.watching).toBe(false);
  });
});
