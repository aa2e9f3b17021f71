import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useToast } from '../../../../web/src/components/toast/toast-context';
import { ToastProvider } from '../../../../web/src/components/toast/toast-provider';
import { ToastViewport } from '../../../../web/src/components/toast/toast-viewport';

function Trigger() {
  const { toast } = useToast();
  return (
    <>
      <button type="button" onClick={() => toast({ title: 'Saved', description: 'All good.' })}>
        Info
      </button>
      <button
        type="button"
        onClick={() => toast({ title: 'Checkout Failed', description: 'Try again.', variant: 'destructive' })}
      >
        Error
      </button>
    </>
  );
}

function renderToasts() {
  const user = userEvent.setup();
  render(
    <ToastProvider>
      <Trigger />
      <ToastViewport />
    </ToastProvider>,
  );
  return user;
}

describe('toasts', () => {
  it('announces information politely and errors assertively, in regions that are always present', async () => {
    const user = renderToasts();
    const polite = screen.getByRole('status', { name: 'Notifications' });
    const assertive = screen.getByRole('alert', { name: 'Errors' });
    expect(polite).toHaveAttribute('aria-live', 'polite');
    expect(assertive).toHaveAttribute('aria-live', 'assertive');

    await user.click(screen.getByRole('button', { name: 'Info' }));
    expect(within(polite).getByText('Saved')).toBeInTheDocument();
    expect(within(polite).getByText('All good.')).toBeInTheDocument();
    const saved = within(polite).getByText('Saved').closest('.toast');

    await user.click(screen.getByRole('button', { name: 'Error' }));
    expect(within(assertive).getByText('Checkout Failed')).toBeInTheDocument();
    expect(within(assertive).queryByText('Saved')).not.toBeInTheDocument();
    // The destructive look is more than colour: its own class (border and icon) on the toast.
    expect(within(assertive).getByText('Checkout Failed').closest('.toast')).toHaveClass(
      'toast--destructive',
    );
    expect(saved).not.toHaveClass('toast--destructive');
  });

  it('closes with its close button, named after its message, and focus goes back to what raised it', async () => {
    const user = renderToasts();
    await user.click(screen.getByRole('button', { name: 'Error' }));

    await user.click(
      within(screen.getByRole('alert')).getByRole('button', { name: 'Close message: Checkout Failed' }),
    );

    expect(screen.queryByText('Checkout Failed')).not.toBeInTheDocument();
    // Not dropped to <body>: back on the button that raised the message.
    expect(screen.getByRole('button', { name: 'Error' })).toHaveFocus();
  });

  it('closes with Escape', async () => {
    const user = renderToasts();
    await user.click(screen.getByRole('button', { name: 'Info' }));
    expect(screen.getByText('Saved')).toBeInTheDocument();

    await user.keyboard('{Escape}');

    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Info' })).toHaveFocus();
  });

  it('replaces the message shown rather than stacking a second one', async () => {
    const user = renderToasts();
    await user.click(screen.getByRole('button', { name: 'Info' }));
    await user.click(screen.getByRole('button', { name: 'Error' }));

    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^Close message/ })).toHaveLength(1);
  });

  it('disappears by itself after a few seconds, but not while hovered', () => {
    // fireEvent rather than user-event here: user-event waits on setTimeout, which is faked.
    vi.useFakeTimers();
    render(
      <ToastProvider>
        <Trigger />
        <ToastViewport durationMs={5000} />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Error' }));
    const toast = screen.getByText('Checkout Failed');

    fireEvent.mouseEnter(toast);
    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.getByText('Checkout Failed')).toBeInTheDocument();

    fireEvent.mouseLeave(toast);
    act(() => vi.advanceTimersByTime(4_900));
    expect(screen.getByText('Checkout Failed')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByText('Checkout Failed')).not.toBeInTheDocument();
  });

  it('shows the same message once, however often it is raised', async () => {
    const user = renderToasts();

    await user.click(screen.getByRole('button', { name: 'Error' }));
    await user.click(screen.getByRole('button', { name: 'Error' }));

    expect(within(screen.getByRole('alert')).getAllByText('Checkout Failed')).toHaveLength(1);
  });
});
