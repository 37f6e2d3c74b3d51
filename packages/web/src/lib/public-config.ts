import type { AccountRules } from '@campus-books/common/account.schemas';
import type { PublicConfig } from '@campus-books/common/api';
import { DEFAULT_GROUPME_LINK_PREFIX } from '@campus-books/common/campus';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { apiCall } from './api-client';
import { queryKeys } from './query-keys';

export const publicConfigQueryOptions = queryOptions({
  queryKey: queryKeys.publicConfig,
  queryFn: ({ signal }) => apiCall('GET /api/config', { signal }),
  staleTime: Infinity,
  gcTime: Infinity,
});

/** GET /api/config: the deployment's rules and links; undefined until loaded. */
export function usePublicConfig(): PublicConfig | undefined {
  return useQuery(publicConfigQueryOptions).data;
}

const DEFAULT_ACCOUNT_RULES: AccountRules = {
  schoolEmailDomain: null,
  groupmeLinkPrefix: DEFAULT_GROUPME_LINK_PREFIX,
};

/** The e-mail and GroupMe rules forms validate with; the defaults apply until the config loads. */
export function useAccountRules(): AccountRules {
  const config = usePublicConfig();
  const domain = config?.schoolEmailDomain;
  const prefix = config?.groupmeLinkPrefix;
  // A stable object, so forms can memoise the zod schema built from it.
  return useMemo(
    () =>
      prefix === undefined || domain === undefined
        ? DEFAULT_ACCOUNT_RULES
        : { schoolEmailDomain: domain, groupmeLinkPrefix: prefix },
    [domain, prefix],
  );
}
