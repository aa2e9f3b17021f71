import { Link } from 'react-router-dom';
import { shopAndSeller } from '../../../../shared/shop-and-seller';
import { policyPaths } from '../../lib/paths';
import { SELLER, type Seller } from '../../lib/seller';

/**
 * On every page: who sells, how to reach them, and the policies, before anyone pays. A shop that
 * trades under its own name is not said to be "sold by" itself.
 */
export function SiteFooter({ seller = SELLER }: { seller?: Seller }) {
  return (
    <footer className="site-footer">
      <p>
        {shopAndSeller(seller)}, {seller.address}. <a href={`mailto:${seller.email}`}>{seller.email}</a>
        {seller.companyNumber ? ` · Company number ${seller.companyNumber}` : ''}
        {seller.vatNumber ? ` · VAT number ${seller.vatNumber}` : ''}
      </p>
      <nav aria-label="Shop policies">
        <PolicyLinks />
      </nav>
    </footer>
  );
}

/** Privacy, terms and contact: in the footer and next to the checkout button. */
export function PolicyLinks() {
  return (
    <ul className="policy-links">
      <li>
        <Link to={policyPaths.privacy}>Privacy notice</Link>
      </li>
      <li>
        <Link to={policyPaths.terms}>Terms of sale</Link>
      </li>
      <li>
        <Link to={policyPaths.contact}>Contact us</Link>
      </li>
    </ul>
  );
}
