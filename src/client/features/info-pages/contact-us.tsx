import { Link } from '../../lib/router.js';
import { siteConfig } from '../../lib/site-config.js';

/** How to reach the people who run the site: the configured address, else the site itself. */
export function ContactUs({ topic }: { topic: string }) {
  if (siteConfig.contactEmail) {
    return (
      <>
        {topic} Write to us at <a href={`mailto:${siteConfig.contactEmail}`}>{siteConfig.contactEmail}</a>.
      </>
    );
  }
  return (
    <>
      {topic} Contact our team through this site: use the <Link to="/?view=suggest">Suggest a Poll</Link> form, write
      your message in the question box and leave your e-mail address so we can reply.
    </>
  );
}
