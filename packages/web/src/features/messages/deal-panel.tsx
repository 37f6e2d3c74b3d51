import type { Conversation } from '@campus-books/common/conversation.schemas';
import { isPending } from '@campus-books/common/display';
import { Button } from '../../components/ui/button';
import { RequestError } from '../../components/ui/request-error';
import { useAnswerOffer, useListingDeal } from './api/conversation-api';
import { booksOf, dollars } from './event-line';
import { MarkSold } from '../../components/mark-sold';
import { OfferBooks } from './offer-books';
import { OfferForm } from './offer-form';

/** The books held for this buyer by the offer the seller accepted (several for a set, issue 44). */
function heldSet(conversation: Conversation) {
  if (!conversation.heldForThisBuyer) return [];
  return conversation.events.findLast((event) => event.kind === 'offer_accepted')?.listings ?? [];
}

/**
 * The deal, in the thread: the open offer and its answers (accept, decline, or the seller's
 * counter), the buyer's offer, the seller's hold (release) and sale ("sold to whom?").
 */
export function DealPanel({ conversation }: { conversation: Conversation }) {
  const { listing, openOffer, role } = conversation;
  const answer = useAnswerOffer(conversation.id);
  const deal = useListingDeal(listing.id ?? '');
  const isSeller = role === 'seller';
  const forSale = listing.status === 'active' && listing.id !== null && listing.price !== null;
  const held = isPending({ ...listing, status: listing.status ?? '' });
  const offerToAnswer = openOffer && openOffer.from !== role ? openOffer : null;
  const myOpenOffer = openOffer && openOffer.from === role ? openOffer : null;
  const heldBooks = heldSet(conversation);
  const buyerName = conversation.other.username ?? 'this buyer';

  if (!forSale) return null;
  return (
    <section
      aria-labelledby="deal-title"
      className="space-y-3 rounded-xl border border-slate-200 bg-white p-4"
    >
      <h2 id="deal-title" className="font-bold text-slate-900">
        Offer
      </h2>
      {held ? (
        <p className="text-sm text-slate-800">
          {conversation.heldForThisBuyer
            ? heldBooks.length > 1
              ? isSeller
                ? `Pending: all ${heldBooks.length} books of the offer are on hold for ${buyerName}.`
                : `Pending: the seller is holding all ${heldBooks.length} books for you.`
              : isSeller
                ? `Pending: on hold for ${buyerName}.`
                : 'Pending: the seller is holding this book for you.'
            : 'Pending: on hold for another buyer.'}
        </p>
      ) : null}
      {held ? (
        <OfferBooks listings={heldBooks} label="Books on hold" activeState="On hold" />
      ) : null}
      {offerToAnswer ? (
        <div className="space-y-2">
          <p className="font-semibold text-slate-900">
            {conversation.other.username ?? 'The other student'}{' '}
            {offerToAnswer.from === 'seller' ? 'countered with' : 'offered'}{' '}
            {dollars(offerToAnswer.amount)}
            {booksOf(offerToAnswer.listings)}
          </p>
          <OfferBooks listings={offerToAnswer.listings} label="Books of the offer" />
          <div className="flex flex-wrap gap-3">
            <Button
              onClick={() => answer.mutate({ offerId: offerToAnswer.id, answer: 'accept' })}
              disabled={answer.isPending}
            >
              Accept {dollars(offerToAnswer.amount)}
              {booksOf(offerToAnswer.listings)}
            </Button>
            <Button
              variant="secondary"
              onClick={() => answer.mutate({ offerId: offerToAnswer.id, answer: 'decline' })}
              disabled={answer.isPending}
            >
              Decline
            </Button>
          </div>
          <RequestError error={answer.error} />
        </div>
      ) : null}
      {myOpenOffer ? (
        <p className="text-sm text-slate-800">
          Your offer of {dollars(myOpenOffer.amount)}
          {booksOf(myOpenOffer.listings)} is waiting for an answer.
        </p>
      ) : null}
      {myOpenOffer ? (
        <OfferBooks listings={myOpenOffer.listings} label="Books of your offer" />
      ) : null}
      {!isSeller || offerToAnswer ? (
        <OfferForm
          key={openOffer?.id ?? 'none'}
          conversationId={conversation.id}
          price={listing.price!}
          isCounter={isSeller}
          counterSet={isSeller ? offerToAnswer?.listings : undefined}
        />
      ) : null}
      {isSeller ? (
        <div className="flex flex-wrap gap-3 border-t border-slate-200 pt-3">
          {held ? (
            <Button
              variant="secondary"
              onClick={() => deal.release.mutate()}
              isLoading={deal.release.isPending}
              loadingText="Releasing..."
            >
              Release hold
            </Button>
          ) : null}
          <MarkSold
            listingId={listing.id!}
            defaultBuyerId={conversation.other.id}
            mutation={deal.sold}
            note={
              heldBooks.length > 1
                ? `${buyerName}’s offer holds ${heldBooks.length} books: sold to ${buyerName}, every book of the set is marked sold to them. Sold to someone else, only this book is, and the others are for sale again.`
                : undefined
            }
          />
          <RequestError error={deal.release.error} className="w-full" />
        </div>
      ) : null}
    </section>
  );
}
