/**
 * "Suggest a Poll": a question, 2 to 6 options, and optionally a name and an e-mail. Folded
 * away under today's poll; open on its own tab. The form (suggestion-fields.tsx) loads when it
 * is first shown; the fold is a plain disclosure button, drawn as Radix's Collapsible drew it.
 */
import { Suspense, useId, useState } from 'react';
import { lazyPart } from '../../../lib/lazy-part.js';
import './suggest.css';

const Suggestion = lazyPart(
  'features/suggest/components/suggestion-fields.tsx',
  () => import('./suggestion-fields.js'),
);

export function SuggestionSection({ collapsed }: { collapsed: boolean }) {
  const [open, setOpen] = useState(false);
  const contentId = useId();
  // On its own tab it suspends the screen, as every lazy page does: the page is marked hydrated
  // (app.tsx) once the form is.
  if (!collapsed) return <Suggestion page />;
  const state = open ? 'open' : 'closed';
  return (
    <div className="card suggest" data-state={state}>
      <h2 className="suggest__collapsed-heading">
        <button
          type="button"
          className="suggest__trigger"
          aria-controls={contentId}
          aria-expanded={open}
          data-state={state}
          onClick={() => setOpen(!open)}
          // The form's code is fetched as soon as a visitor heads for the button.
          onPointerEnter={preloadForm}
          onFocus={preloadForm}
        >
          Suggest a Poll
          <span aria-hidden="true" className="suggest__chevron">
            ▾
          </span>
        </button>
      </h2>
      <div id={contentId} data-state={state} hidden={!open}>
        {open && (
          <Suspense fallback={null}>
            <Suggestion page={false} />
          </Suspense>
        )}
      </div>
    </div>
  );
}

function preloadForm() {
  void import('./suggestion-fields.js');
}
