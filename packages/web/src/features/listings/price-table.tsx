import { COMMUNITY_FEE } from '@campus-books/common/constants';
import { formatPrice } from '@campus-books/common/display';

/** Item cost, the (zero) community fee, and the total the buyer pays the seller. */
export function PriceTable({ price }: { price: number }) {
  return (
    <table className="w-full max-w-sm text-sm">
      <caption className="sr-only">Price</caption>
      <tbody>
        <tr>
          <th scope="row" className="py-1.5 text-left font-medium text-slate-700">
            Item Cost
          </th>
          <td className="py-1.5 text-right">{formatPrice(price)}</td>
        </tr>
        <tr>
          <th scope="row" className="py-1.5 text-left font-medium text-slate-700">
            Community Fee
          </th>
          <td className="py-1.5 text-right">{formatPrice(COMMUNITY_FEE)}</td>
        </tr>
        <tr className="border-t border-slate-300 text-base font-bold">
          <th scope="row" className="pt-2 text-left">
            Total
          </th>
          <td className="pt-2 text-right text-brand-900">{formatPrice(price + COMMUNITY_FEE)}</td>
        </tr>
      </tbody>
    </table>
  );
}
