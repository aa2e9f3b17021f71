import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useToast } from '../../../../web/src/components/toast/toast-context';
import { ToastProvider } from '../../../../web/src/components/toast/toast-provider';

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
    await user.click(screen.getByRole('button', { name: 'Error' }));

    expect(within(polite).getByText('Saved')).toBeInTheDocument();
    expect(within(polite).getByText('All good.')).toBeInTheDocument();
    expect(within(assertive).getByText('Checkout Failed')).toBeInTheDocument();
    expect(within(assertive).queryByText('Saved')).not.toBeInTheDocument();
    // The destructive look is more than colour: its own class (border and icon) on the toast.
    expect(within(assertive).getByText('Checkout Failed').closest('.toast')).toHaveClass(
      'toast--destructive',
    );
    expect(within(polite).getByText('Saved').closest('.toast')).not.toHaveClass('toast--destructive');
  });

  it('closes with the Dismiss button', async () => {
    const user = renderToasts();
    await user.click(screen.getByRole('button', { name: 'Error' }));

    await user.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Dismiss' }));

    expect(screen.queryByText('Checkout Failed')).not.toBeInTheDocument();
  });

  it('disappears by itself after a few seconds, but not while hovered', () => {
    // fireEvent rather than user-event here: user-event waits on setTimeout, which is faked.
    vi.useFakeTimers();
    render(
      <ToastProvider durationMs={5000}>
        <Trigger />
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
