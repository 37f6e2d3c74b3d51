import type { Listing } from '@campus-books/common/listing.schemas';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { ActionLabel } from './listing-grid';
import type { ListingActions } from './use-listing-actions';

const ITEM =
  'flex min-h-11 w-full cursor-pointer items-center px-3 text-left text-sm text-slate-900 no-underline outline-none data-[highlighted]:bg-slate-100';

/**
 * A card's actions behind one compact "Manage" button, as a menu: arrow keys move between its
 * items, Escape closes it and focus returns to the button. Delete comes last, in red.
 * Not modal: a modal menu marks the rest of the page aria-hidden and locks scrolling with an added
 * <style> element, which the page's CSP (style-src 'self') refuses.
 * It opens in the page's <main> (outside the card, which clips), so it stays inside a landmark.
 */
export function ListingActionsMenu({
  listing,
  actions,
}: {
  listing: Listing;
  actions: ListingActions;
}) {
  const [trigger, setTrigger] = useState<HTMLButtonElement | null>(null);
  // A dialog opened from the menu gives focus back to what had it: the button, not a removed item.
  const thenDialog = (open: (listing: Listing) => void) => () => {
    trigger?.focus();
    open(listing);
  };
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        ref={setTrigger}
        className="flex min-h-11 w-full items-center justify-between rounded-lg border border-slate-300 bg-white px-3 text-sm font-semibold text-slate-900 hover:bg-slate-100"
      >
        <ActionLabel verb="Manage" listing={listing} />
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4">
          <circle cx="4" cy="10" r="1.6" fill="currentColor" />
          <circle cx="10" cy="10" r="1.6" fill="currentColor" />
          <circle cx="16" cy="10" r="1.6" fill="currentColor" />
        </svg>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal container={trigger?.closest('main')}>
        <DropdownMenu.Content
          side="top"
          align="start"
          sideOffset={4}
          collisionPadding={8}
          className="z-20 max-w-[calc(100vw-1rem)] min-w-[var(--radix-dropdown-menu-trigger-width)] overflow-hidden rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
        >
          {listing.status === 'sold' ? (
            <MenuItem onSelect={() => actions.relist(listing)}>
              <ActionLabel verb="Relist" listing={listing} />
            </MenuItem>
          ) : (
            <>
              <MenuLink to={paths.updateListing(listing._id)}>
                <ActionLabel verb="Edit" listing={listing} />
              </MenuLink>
              <MenuItem onSelect={thenDialog(actions.askWhoBought)}>
                <ActionLabel verb="Mark as sold" listing={listing} />
              </MenuItem>
            </>
          )}
          <MenuLink to={paths.messages(listing._id)}>
            <ActionLabel verb="Messages" listing={listing} />
          </MenuLink>
          <DropdownMenu.Separator className="h-px bg-slate-200" />
          <MenuItem danger onSelect={thenDialog(actions.askToDelete)}>
            <ActionLabel verb="Delete" listing={listing} />
          </MenuItem>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

function MenuItem({
  onSelect,
  danger = false,
  children,
}: {
  onSelect(): void;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <DropdownMenu.Item
      onSelect={onSelect}
      className={danger ? `${ITEM} font-semibold text-red-700` : ITEM}
    >
      {children}
    </DropdownMenu.Item>
  );
}

function MenuLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <DropdownMenu.Item asChild className={ITEM}>
      <Link to={to}>{children}</Link>
    </DropdownMenu.Item>
  );
}
