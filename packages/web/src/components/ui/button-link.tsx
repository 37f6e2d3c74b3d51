import { Link, type LinkProps } from 'react-router';
import { buttonClassName, type ButtonVariant } from './button-styles';

/** A react-router Link that looks like a Button. */
export function ButtonLink({
  variant = 'primary',
  className,
  ...rest
}: LinkProps & { variant?: ButtonVariant }) {
  return <Link className={buttonClassName(variant, className)} {...rest} />;
}
