import type { Conversation } from '@campus-books/common/conversation.schemas';
import { isPending } from '@campus-books/common/display';
import { Button } from '../../components/ui/button';
import { RequestError } from '../../components/ui/request-error';
import { useAnswerOffer, useListingDeal } from './api/conversation-api';
import { dollars } from './event-line';
import { MarkSold } from '../../components/mark-sold';
import { OfferForm } from './offer-form';

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
            ? isSeller
              ? `Pending: on hold for ${conversation.other.username ?? 'this buyer'}.`
              : 'Pending: the seller is holding this book for you.'
            : 'Pending: on hold for another buyer.'}
        </p>
      ) : null}
      {offerToAnswer ? (
        <div className="space-y-2">
          <p className="font-semibold text-slate-900">
            {conversation.other.username ?? 'The other student'} offered{' '}
            {dollars(offerToAnswer.amount)}
          </p>
          <div className="flex flex-wrap gap-3">
            <Button
              onClick={() => answer.mutate({ offerId: offerToAnswer.id, answer: 'accept' })}
              disabled={answer.isPending}
            >
              Accept {dollars(offerToAnswer.amount)}
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
          Your offer of {dollars(myOpenOffer.amount)} is waiting for an answer.
        </p>
      ) : null}
      {!isSeller || offerToAnswer ? (
        <OfferForm
          key={openOffer?.id ?? 'none'}
          conversationId={conversation.id}
          price={listing.price!}
          isCounter={isSeller}
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
          />
          <RequestError error={deal.release.error} className="w-full" />
        </div>
      ) : null}
    </section>
  );
}
