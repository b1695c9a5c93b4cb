import { useState, type ReactNode } from 'react';
import { Button, FormAlert, cx } from '../../../components/ui';
import { errorText } from '../../../lib/api';

/**
 * A settings form's request: `busy` while it runs, the answer's message as `done`, the error's text (or the
 * fallback) as `failure`. `send` resolves with whether it succeeded.
 */
export function useSettingsRequest(fallback: string) {
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function send(request: () => Promise<{ message: string }>): Promise<boolean> {
    setBusy(true);
    try {
      const answer = await request();
      setDone(answer.message);
      return true;
    } catch (failed) {
      setFailure(errorText(failed, fallback));
      return false;
    } finally {
      setBusy(false);
    }
  }

  return { failure, setFailure, done, setDone, busy, send };
}

/** The success notice above a settings form's fields. */
export function SettingsNotice({ icon, children }: { icon?: ReactNode; children: ReactNode }) {
  return (
    <p
      role="status"
      className={cx(
        icon ? 'flex items-start gap-2' : null,
        'rounded-control border border-ok/40 bg-ok/10 px-3 py-2 text-body',
      )}
    >
      {icon}
      {children}
    </p>
  );
}

/** A settings form: its notice and failure, its fields, then the submit button. */
export function SettingsForm({
  onSubmit,
  notice,
  failure,
  busy,
  submitLabel,
  children,
}: {
  onSubmit: () => Promise<void>;
  notice?: ReactNode;
  failure: string | null;
  busy: boolean;
  submitLabel: string;
  children: ReactNode;
}) {
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
      className="flex max-w-md flex-col gap-4"
    >
      {notice}
      {failure ? <FormAlert>{failure}</FormAlert> : null}
      {children}
      <Button type="submit" loading={busy} className="self-start">
        {submitLabel}
      </Button>
    </form>
  );
}
