import type { Listing } from '@campus-books/common/listing.schemas';
import * as Tabs from '@radix-ui/react-tabs';
import { useState } from 'react';
import { ButtonLink } from '../../components/ui/button-link';
import { paths } from '../../config/paths';
import { ListingActionsMenu } from './listing-actions-menu';
import { ListingGrid } from './listing-grid';
import type { ListingActions } from './use-listing-actions';

type Status = 'active' | 'sold';

const EMPTY: Record<Status, string> = {
  active: 'You have no books for sale right now.',
  sold: 'Nothing sold yet: books you mark as sold show up here.',
};

/**
 * The Active and Sold listings as tabs (arrow keys move between them, Home and End too), each card
 * with its actions menu.
 */
export function ListingStatusTabs({
  active,
  sold,
  actions,
}: {
  active: Listing[];
  sold: Listing[];
  actions: ListingActions;
}) {
  const [tab, setTab] = useState<Status>('active');
  const byStatus: Record<Status, Listing[]> = { active, sold };
  const tabs = [
    { status: 'active', label: `Active (${active.length})` },
    { status: 'sold', label: `Sold (${sold.length})` },
  ] as const;

  return (
    <Tabs.Root value={tab} onValueChange={(value) => setTab(value as Status)}>
      <Tabs.List
        aria-label="Your listings by status"
        className="flex gap-2 border-b border-slate-200"
      >
        {tabs.map((t) => (
          <Tabs.Trigger
            key={t.status}
            value={t.status}
            className="-mb-px min-h-11 border-b-2 border-transparent px-4 text-sm font-semibold text-slate-700 hover:text-slate-900 data-[state=active]:border-brand-700 data-[state=active]:text-brand-900"
          >
            {t.label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {tabs.map(({ status }) => (
        <Tabs.Content key={status} value={status} className="mt-4">
          {byStatus[status].length === 0 ? (
            <div className="space-y-3 py-4 text-slate-700">
              <p>{EMPTY[status]}</p>
              {status === 'active' ? (
                <ButtonLink to={paths.createListing}>Sell a book</ButtonLink>
              ) : null}
            </div>
          ) : (
            <ListingGrid
              listings={byStatus[status]}
              actionsOf={(listing) => <ListingActionsMenu listing={listing} actions={actions} />}
            />
          )}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
