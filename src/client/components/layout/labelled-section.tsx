import type { ReactNode } from 'react';

/**
 * A page's section under its own heading, which names it for assistive technology: the one
 * place where the section's `aria-labelledby` and its heading's id are written, so they agree.
 */
export function LabelledSection({
  id,
  heading,
  className,
  children,
}: {
  id: string;
  heading: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id}>{heading}</h2>
      {children}
    </section>
  );
}
