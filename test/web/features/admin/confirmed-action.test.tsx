import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { AdminOutcome } from '../../../../web/src/features/admin/admin-api';
import { ConfirmedAction } from '../../../../web/src/features/admin/confirmed-action';
import { useAdminAction } from '../../../../web/src/features/admin/use-admin-action';

/** A delay-like action whose call is held until the test releases it, counting the calls made. */
function Harness({ calls, answer }: { calls: string[]; answer: Promise<AdminOutcome<number>> }) {
  const action = useAdminAction();
  const [day, setDay] = useState('Tuesday');
  return (
    <ConfirmedAction
      action={action}
      aria-label="Delay"
      heading={<h2>Delay Monday</h2>}
      label="Delay the day"
      question={`Email 2 customers that their order moves to ${day}?`}
      confirmLabel="Confirm"
      pendingLabel="Delaying…"
      onConfirm={() =>
        action.run(
          () => {
            calls.push(day);
            return answer;
          },
          (moved) => `${moved} order(s) moved to ${day}.`,
        )
      }
    >
      <label>
        Day <input value={day} onChange={(event) => setDay(event.target.value)} />
      </label>
    </ConfirmedAction>
  );
}

describe('ConfirmedAction', () => {
  it('asks, naming what will happen, and does nothing when cancelled', async () => {
    const calls: string[] = [];
    const user = userEvent.setup();
    render(<Harness calls={calls} answer={Promise.resolve({ ok: true, value: 2 })} />);

    await user.click(screen.getByRole('button', { name: 'Delay the day' }));
    expect(screen.getByText('Email 2 customers that their order moves to Tuesday?')).toBeVisible();
    // The fields are locked while the question stands, so the answer is to what was asked.
    expect(screen.getByLabelText('Day')).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    expect(screen.queryByText(/Email 2 customers/)).toBeNull();
    expect(screen.getByLabelText('Day')).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Delay the day' })).toBeVisible();
    expect(calls).toEqual([]);
  });

  it('runs once however often confirmed, shows it pending, and keeps the result until dismissed', async () => {
    const calls: string[] = [];
    let release: (outcome: AdminOutcome<number>) => void = () => {};
    const answer = new Promise<AdminOutcome<number>>((resolve) => {
      release = resolve;
    });
    const user = userEvent.setup();
    render(<Harness calls={calls} answer={answer} />);

    await user.click(screen.getByRole('button', { name: 'Delay the day' }));
    await user.dblClick(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByRole('button', { name: 'Delaying…' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    release({ ok: true, value: 2 });

    expect(await screen.findByText('2 order(s) moved to Tuesday.')).toBeVisible();
    expect(calls).toEqual(['Tuesday']);
    expect(screen.getByRole('button', { name: 'Delay the day' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('2 order(s) moved to Tuesday.')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Dismiss' })).toBeNull();
  });
});
