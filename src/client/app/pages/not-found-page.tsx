import { PageShell } from '../../components/layout/page-shell.js';
import { Link } from '../../lib/router.js';

export default function NotFoundPage() {
  return (
    <PageShell title="404 Page Not Found" back={null} path={null}>
      <div className="card not-found">
        <h1>404 Page Not Found</h1>
        <p>There is no page at this address. Today&apos;s hot take is waiting on the home page.</p>
        <Link to="/" className="button button--primary">
          Go Home
        </Link>
      </div>
    </PageShell>
  );
}
