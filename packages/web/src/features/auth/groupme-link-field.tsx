import type { ComponentProps } from 'react';
import { Link } from 'react-router';
import { isGroupmeRequired, type AccountRules } from '@campus-books/common/account.schemas';
import { TextField } from '../../components/ui/form-field';
import { paths } from '../../config/paths';

/** The account's GroupMe link field, with where to find the link (sign-up, sign-on's finish). */
export function GroupMeLinkField({
  rules,
  ...field
}: { rules: AccountRules } & Omit<ComponentProps<typeof TextField>, 'label'>) {
  return (
    <div>
      <TextField
        label={isGroupmeRequired(rules) ? 'GroupMe link' : 'GroupMe link (optional)'}
        type="url"
        inputMode="url"
        placeholder={`${rules.groupmeLinkPrefix}…`}
        {...field}
      />
      <Link className="link mt-1 inline-block text-sm" to={paths.groupmeInstructions}>
        where can I find it?
      </Link>
    </div>
  );
}
