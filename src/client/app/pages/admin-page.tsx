import { PageShell } from '../../components/layout/page-shell.js';

/** Staff sign-in and the admin panel arrive with the admin issue; until then, an honest page. */
export default function AdminPage() {
  return (
    <PageShell title="Admin Panel">
      <div className="card">
        <h1>Admin Panel</h1>
        <p>The admin panel is not available yet.</p>
      </div>
    </PageShell>
  );
}
