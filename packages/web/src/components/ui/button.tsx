import type { ComponentProps } from 'react';
import { buttonClassName, type ButtonVariant } from './button-styles';

export type ButtonProps = ComponentProps<'button'> & {
  variant?: ButtonVariant;
  /** Disables the button and shows loadingText while an action runs. */
  isLoading?: boolean;
  loadingText?: string;
};

export function Button({
  variant = 'primary',
  isLoading = false,
  loadingText = 'Loading...',
  className,
  disabled,
  children,
  type = 'button',
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClassName(variant, className)}
      disabled={disabled || isLoading}
      aria-busy={isLoading || undefined}
      {...rest}
    >
      {isLoading ? loadingText : children}
    </button>
  );
}

/** A form's full-width submit button, disabled and showing `loadingText` while it is sent. */
export function SubmitButton({
  isPending,
  ...rest
}: Omit<ButtonProps, 'type' | 'isLoading'> & { isPending: boolean }) {
  return <Button type="submit" className="w-full" isLoading={isPending} {...rest} />;
}
