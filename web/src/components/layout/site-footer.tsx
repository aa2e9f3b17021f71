import { Link } from 'react-router-dom';
import { policyPaths } from '../../features/policies/policy-paths';
import { SELLER } from '../../features/policies/seller';

/** On every page: who sells, how to reach them, and the policies, before anyone pays. */
export function SiteFooter() {
  return (
    <footer className="site-footer">
      <p>
        {SELLER.shopName} is sold by {SELLER.name}, {SELLER.address}.{' '}
        <a href={`mailto:${SELLER.email}`}>{SELLER.email}</a>
        {SELLER.companyNumber ? ` · Company number ${SELLER.companyNumber}` : ''}
        {SELLER.vatNumber ? ` · VAT number ${SELLER.vatNumber}` : ''}
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
