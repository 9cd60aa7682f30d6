/** /trackers and /trackers/<slug>: one lazy part for both, so the first visit's script names one module, not two. */
import TrackerPage from './tracker-page.js';
import TrackersPage from './trackers-page.js';

export default function TrackersScreen({ slug }: { slug: string | null }) {
  return slug === null ? <TrackersPage /> : <TrackerPage key={slug} slug={slug} />;
}
