import { Link } from 'react-router-dom';
import { paths } from '../../../lib/paths';

export function ReturnHomeLink({
  label = 'Return Home',
  primary = true,
}: {
  label?: string;
  primary?: boolean;
}) {
  return (
    <Link className={primary ? 'button button--primary' : 'button button--secondary'} to={paths.home}>
      {label}
    </Link>
  );
}
