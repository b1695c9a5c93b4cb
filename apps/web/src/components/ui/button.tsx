import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { cx } from './class-names';
import { Spinner } from './spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg';

const base =
  'inline-flex items-center justify-center gap-2 whitespace-nowrap font-semibold select-none transition-[background-color,border-color,color,transform,opacity] duration-150 ease-out active:scale-[0.98] disabled:pointer-events-none disabled:opacity-50';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-accent text-bg hover:bg-[#ff7252]',
  secondary: 'border border-line bg-transparent text-text hover:border-muted hover:bg-surface-2',
  ghost: 'bg-transparent text-muted hover:bg-surface-2 hover:text-text',
  danger: 'bg-danger text-bg hover:bg-[#ff6984]',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'h-8 rounded-control px-3 text-meta',
  md: 'h-10 rounded-control px-4 text-body',
  lg: 'h-12 rounded-control px-6 text-h4',
};

/** Button looks for links (`<Link className={buttonClasses()}>`). */
export function buttonClasses({
  variant = 'primary',
  size = 'md',
  className,
}: { variant?: ButtonVariant; size?: ButtonSize; className?: string } = {}): string {
  return cx(base, variants[variant], sizes[size], className);
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Shows a spinner, disables the button and marks it busy. */
  loading?: boolean;
  icon?: ReactNode;
}

export function Button({
  variant = 'primary',
  size = 'md',
  loading = false,
  icon,
  className,
  children,
  disabled,
  type = 'button',
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClasses({ variant, size, className })}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading ? (
        <Spinner size="sm" tone={variant === 'primary' || variant === 'danger' ? 'onAccent' : 'accent'} />
      ) : (
        icon
      )}
      {children}
    </button>
  );
}

export interface IconButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** Required: icon-only buttons are named for screen readers. */
  label: string;
  /** `active` is a ghost button in its on state (e.g. a liked heart). */
  variant?: 'primary' | 'ghost' | 'surface' | 'active';
  size?: 'sm' | 'md' | 'lg';
  /** Shows a small spinner in place of the icon and disables the button. */
  loading?: boolean;
}

const iconVariants = {
  primary: 'bg-accent text-bg hover:bg-[#ff7252]',
  ghost: 'bg-transparent text-muted hover:bg-surface-2 hover:text-text',
  surface: 'bg-surface-2 text-text hover:bg-line',
  active: 'bg-transparent text-accent hover:bg-surface-2',
};
const iconSizes = { sm: 'size-8', md: 'size-10', lg: 'size-12' };

/** Round icon-only button looks for links (`<Link aria-label className={iconButtonClasses()}>`). */
export function iconButtonClasses({
  variant = 'ghost',
  size = 'md',
  className,
}: {
  variant?: IconButtonProps['variant'];
  size?: IconButtonProps['size'];
  className?: string;
} = {}): string {
  return cx(
    'inline-flex shrink-0 items-center justify-center rounded-pill transition-[background-color,color,transform] duration-150 ease-out active:scale-95 disabled:pointer-events-none disabled:opacity-50',
    iconVariants[variant],
    iconSizes[size],
    className,
  );
}

/** Round, icon-only button with an accessible label. */
export function IconButton({
  label,
  variant = 'ghost',
  size = 'md',
  className,
  type = 'button',
  loading = false,
  disabled,
  children,
  ...rest
}: IconButtonProps) {
  return (
    <button
      type={type}
      aria-label={label}
      title={label}
      className={iconButtonClasses({ variant, size, className })}
      disabled={disabled || loading}
      {...rest}
    >
      {loading ? <Spinner size="sm" /> : children}
    </button>
  );
}
