/**
 * "Share this poll": the five networks and Copy Link on the poll card; on the results, the
 * device's own share sheet and Copy Link. Closes with Close, Escape or a click outside.
 */
import { useEffect, useRef, useState } from 'react';
import { Dialog, DialogClose, DialogDescription } from '../../components/ui/dialog.js';
import { toast } from '../../components/ui/toast.js';
import { copyText } from '../../lib/copy-text.js';
import { EMBED_WIDTH, embedHeight, iframeCode } from '../../../shared/embed.js';
import { pollEmbed, pollQrCode } from '../../../shared/poll-links.js';
import { shareLinks } from './share-links.js';
import './share.css';

export interface ShareDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  url: string;
  /** The text that goes with the link: the question. */
  text: string;
  /** networks: the poll card's overlay; device: the results' share modal. */
  kind: 'networks' | 'device';
  /** The poll's number and option count, for its embed code and QR code. */
  pollNumber?: number;
  optionCount?: number;
}

/** How long "Copied!" shows (spec section 9). */
const COPIED_MS = { networks: 2000, device: 1500 } as const;

export default function ShareDialog({
  open,
  onOpenChange,
  url,
  text,
  kind,
  pollNumber,
  optionCount = 4,
}: ShareDialogProps) {
  const link = useCopy(url, 'Failed to copy link. Please try again.', COPIED_MS[kind]);

  async function shareWithDevice() {
    try {
      await navigator.share({ title: text, text, url });
      onOpenChange(false);
    } catch (error) {
      // AbortError: the visitor closed the sheet, which is no failure. Copy Link stays at hand.
      if ((error as Error).name !== 'AbortError')
        toast({ title: 'Failed to share link. Please try again.', variant: 'failure' });
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Share this poll" className="share-dialog">
      <DialogDescription className="share-dialog__question">{text}</DialogDescription>
      {kind === 'networks' ? (
        <ul className="share-dialog__networks">
          {shareLinks(url, text).map((link) => (
            <li key={link.name}>
              <a className="share-dialog__network" href={link.href} target="_blank" rel="noopener noreferrer">
                {link.name}
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            </li>
          ))}
        </ul>
      ) : (
        'share' in navigator && (
          <button
            type="button"
            className="button button--primary share-dialog__wide"
            onClick={() => void shareWithDevice()}
          >
            Share via apps
          </button>
        )
      )}
      <div className="share-dialog__link">
        <input
          className="input"
          readOnly
          value={url}
          aria-label="Link to this poll"
          onFocus={(e) => e.target.select()}
        />
        <CopyButton copy={link}>Copy Link</CopyButton>
      </div>
      <p className="visually-hidden" role="status">
        {link.copied ? 'Link copied' : ''}
      </p>
      {pollNumber !== undefined && (
        <EmbedAndQr pollNumber={pollNumber} optionCount={optionCount} url={url} text={text} />
      )}
      <DialogClose className="button button--quiet share-dialog__wide">Close</DialogClose>
    </Dialog>
  );
}

/** "Embed": the iframe code to copy into a newsletter or a school site; and the poll's QR code. */
function EmbedAndQr({
  pollNumber,
  optionCount,
  url,
  text,
}: {
  pollNumber: number;
  optionCount: number;
  url: string;
  text: string;
}) {
  const origin = new URL(url).origin;
  const code = iframeCode({
    src: `${origin}${pollEmbed.path(pollNumber)}`,
    title: text,
    width: EMBED_WIDTH,
    height: embedHeight(optionCount),
  });
  const copyCode = useCopy(code, 'Failed to copy the code. Please try again.');

  return (
    <>
      <details className="share-dialog__embed">
        <summary>Embed</summary>
        <p className="share-dialog__hint">Paste this code into a newsletter or a web page to show the poll there.</p>
        <textarea
          className="input share-dialog__code"
          readOnly
          rows={4}
          value={code}
          aria-label="Embed code"
          onFocus={(e) => e.target.select()}
        />
        <CopyButton copy={copyCode}>Copy Code</CopyButton>
      </details>
      <figure className="share-dialog__qr">
        <img src={pollQrCode.path(pollNumber)} width={148} height={148} alt={`QR code that opens ${url}`} />
        <figcaption>Scan to open this poll</figcaption>
      </figure>
    </>
  );
}

interface Copy {
  copied: boolean;
  copy: () => Promise<void>;
}

/**
 * Copies `text` to the clipboard when asked: `copied` from then on, or for `copiedForMs` when
 * given (a new copy starts the time again). A failure is said in a toast titled `failure`.
 */
function useCopy(text: string, failure: string, copiedForMs?: number): Copy {
  const [copied, setCopied] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  async function copy() {
    try {
      await copyText(text);
      setCopied(true);
      if (copiedForMs === undefined) return;
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => setCopied(false), copiedForMs);
    } catch {
      toast({ title: failure, variant: 'failure' });
    }
  }

  return { copied, copy };
}

/** "Copy …" (the children), and "Copied!" once copied. */
function CopyButton({ copy, children }: { copy: Copy; children: string }) {
  return (
    <button type="button" className="button button--secondary" onClick={() => void copy.copy()}>
      {copy.copied ? 'Copied!' : children}
    </button>
  );
}
