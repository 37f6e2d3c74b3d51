import { FIRST_MESSAGES, firstMessageText } from '@campus-books/common/first-messages';
import type { Listing } from '@campus-books/common/listing.schemas';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { paths } from '../../config/paths';
import type { MessageDraftState } from '../../lib/message-draft';

/**
 * The first message in one tap (issue 44): each opens the conversation with its text in the message
 * box, ready to send or edit (the offer's price is the listing's, to change); nothing is sent until
 * the buyer sends it, once however often they tap Send.
 */
export function FirstMessages({ listing }: { listing: Listing }) {
  const navigate = useNavigate();
  return (
    <section aria-labelledby="first-messages-title">
      <h2 id="first-messages-title" className="text-sm font-semibold text-slate-800">
        Ask the seller
      </h2>
      <ul className="mt-2 flex flex-wrap gap-2">
        {FIRST_MESSAGES.map((template) => {
          const text = firstMessageText(template, listing.regularPrice);
          const state: MessageDraftState = { draft: text };
          return (
            <li key={template}>
              <Button
                variant="secondary"
                className="min-h-11 rounded-full text-sm"
                onClick={() => void navigate(paths.messageSeller(listing._id), { state })}
              >
                {text}
              </Button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
