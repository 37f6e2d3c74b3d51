import type { AccountRules } from '@campus-books/common/account.schemas';
import type { PublicConfig } from '@campus-books/common/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { apiCall } from './api-client';
import { useCampus } from './campus';
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

/**
 * The e-mail and GroupMe rules forms validate with; the campus's own apply until the config loads
 * (whether a GroupMe link is required is the campus's: common/account.schemas reads it).
 */
export function useAccountRules(): AccountRules {
  const config = usePublicConfig();
  const campus = useCampus().config;
  const domain = config?.schoolEmailDomain;
  const prefix = config?.groupmeLinkPrefix;
  const partners = config?.partnerEmailDomains;
  // A stable object, so forms can memoise the zod schema built from it.
  return useMemo(
    () =>
      prefix === undefined || domain === undefined
        ? { schoolEmailDomain: campus.emailDomain, groupmeLinkPrefix: campus.groupme.linkPrefix }
        : { schoolEmailDomain: domain, groupmeLinkPrefix: prefix, partnerEmailDomains: partners },
    [domain, prefix, partners, campus],
  );
}
