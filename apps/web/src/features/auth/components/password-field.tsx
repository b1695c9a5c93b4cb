import { useState } from 'react';
import { Eye, EyeOff } from 'lucide-react';
import { TextField, type TextFieldProps } from '../../../components/ui';

/** A password input with a show/hide toggle. */
export function PasswordField(props: Omit<TextFieldProps, 'type'>) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <TextField {...props} type={visible ? 'text' : 'password'} className="[&_input]:pr-11" />
      <button
        type="button"
        onClick={() => setVisible((value) => !value)}
        aria-label={visible ? 'Hide password' : 'Show password'}
        aria-pressed={visible}
        className="absolute right-1 top-[30px] flex size-9 items-center justify-center rounded-control text-muted transition-colors hover:text-text"
      >
        {visible ? (
          <EyeOff size={18} strokeWidth={1.75} aria-hidden="true" />
        ) : (
          <Eye size={18} strokeWidth={1.75} aria-hidden="true" />
        )}
      </button>
    </div>
  );
}

/** The account's current password, which an account that only ever used social sign-in does not have. */
export function CurrentPasswordField({
  hint = 'Leave empty if you only ever signed in with a social account.',
  ...props
}: Omit<TextFieldProps, 'type' | 'autoComplete'>) {
  return <PasswordField autoComplete="current-password" hint={hint} {...props} />;
}
