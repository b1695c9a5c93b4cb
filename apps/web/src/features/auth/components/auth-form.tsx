import type { ReactNode } from 'react';
import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { Button, FormAlert, TextField, type TextFieldProps } from '../../../components/ui';
import type { AuthForm as AuthFormState } from '../use-auth-form';

/** A sign-in page's document title, heading and one line saying what the page is for. */
export function AuthIntro({
  title,
  heading = title,
  children,
}: {
  title: string;
  heading?: string;
  children: ReactNode;
}) {
  return (
    <>
      <title>{`${title} · Backbeat`}</title>
      <h1 className="text-h2 font-bold tracking-tight">{heading}</h1>
      <p className="mt-2 text-body text-muted">{children}</p>
    </>
  );
}

/** A sign-in form: its failure above the fields (with `failureAction` after it), the fields, a wide submit button. */
export function AuthForm({
  form,
  submit,
  failureAction,
  children,
  footer,
}: {
  form: Pick<AuthFormState, 'failure' | 'submitting' | 'onSubmit'>;
  submit: string;
  failureAction?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <form noValidate onSubmit={form.onSubmit} className="mt-8 flex flex-col gap-5">
      {form.failure ? (
        <FormAlert>
          {form.failure}
          {failureAction ? <> {failureAction}</> : null}
        </FormAlert>
      ) : null}
      {children}
      <Button type="submit" size="lg" loading={form.submitting} className="w-full">
        {submit}
      </Button>
      {footer}
    </form>
  );
}

/** The account's e-mail address, as browsers and password managers expect it. */
export function EmailField(props: Omit<TextFieldProps, 'label' | 'type'>) {
  return <TextField label="Email" type="email" autoComplete="email" inputMode="email" required {...props} />;
}

/** The way back from the password pages. */
export function BackToLogin() {
  return (
    <Link
      to="/login"
      className="mt-8 inline-flex items-center gap-2 self-center text-body font-medium text-muted hover:text-text"
    >
      <ArrowLeft size={16} strokeWidth={1.75} aria-hidden="true" />
      Back to log in
    </Link>
  );
}
