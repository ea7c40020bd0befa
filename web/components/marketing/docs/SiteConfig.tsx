import { Callout, CodeBlock, DocHeading, DocSection, InlineCode } from "./DocBits";

const REDIRECTS = `# from            to                      status
/old-page         /new-page               301
/blog/:year/:slug /posts/:slug            302
/docs/*           https://docs.example.com/:splat  301
/admin/*          /login                  302!
/*                /index.html             200`;

const HEADERS = `/*
  X-Frame-Options: DENY
  Referrer-Policy: strict-origin-when-cross-origin

/assets/*
  Cache-Control: public, max-age=31536000, immutable`;

/** How a site configures redirects, rewrites, headers and fallbacks: _redirects, _headers, 200.html, 404.html. */
export function SiteConfigSection() {
  return (
    <DocSection
      id="redirects-and-headers"
      title="Redirects and headers"
      lead="Two plain-text files at the root of a site, in the syntax Netlify made common."
    >
      <p>
        Put a file named <InlineCode>_redirects</InlineCode> or <InlineCode>_headers</InlineCode> at the top of your site (in your zip, or uploaded in
        the Files tab). Berth reads them every time the site is published. They are never served to visitors.
      </p>
      <DocHeading>_redirects</DocHeading>
      <p>
        One rule per line: the path, the target, and an optional status. <InlineCode>:name</InlineCode> matches one part of the path and{" "}
        <InlineCode>*</InlineCode> the rest, which the target uses as <InlineCode>:splat</InlineCode>. Status 301 (the default), 302, 307 and 308
        redirect; 200 serves the target without changing the address (a rewrite); 404 serves the target as a “not found” page. A rule applies only
        when no file exists at the path, unless its status ends with <InlineCode>!</InlineCode>. The first matching rule wins.
      </p>
      <CodeBlock label="_redirects" code={REDIRECTS} />
      <p>The last line is the usual rule for a single-page app: every path that is not a file serves the app.</p>
      <DocHeading>_headers</DocHeading>
      <p>
        A path (with <InlineCode>*</InlineCode> for any run of characters), then the headers for it, indented. Every matching block adds its headers;
        repeated headers are joined with commas.
      </p>
      <CodeBlock label="_headers" code={HEADERS} />
      <Callout title="When a line is wrong">
        The publish fails and the deployment card shows the line number and the reason, for example{" "}
        <InlineCode>_redirects line 2: unknown status "303"</InlineCode>. The version that was live stays live until the file is fixed. Limits: 2,000
        redirect rules and 500 header rules. Headers that would break the response (such as Content-Length) or reach past your own site to its
        neighbours (Set-Cookie, Clear-Site-Data, and Strict-Transport-Security with includeSubDomains) are refused.
      </Callout>
      <DocHeading>Fallback pages and clean URLs</DocHeading>
      <ul className="list-disc space-y-2 pl-6 marker:text-muted-foreground">
        <li>
          A <InlineCode>404.html</InlineCode> at the root is shown, with status 404, for any path that has no file.
        </li>
        <li>
          A <InlineCode>200.html</InlineCode> at the root is served for any path that has no file: a single-page app needs nothing else.
        </li>
        <li>
          <InlineCode>/about</InlineCode> serves <InlineCode>about.html</InlineCode>; <InlineCode>/about.html</InlineCode> redirects to{" "}
          <InlineCode>/about</InlineCode>; a folder with an <InlineCode>index.html</InlineCode> is served at <InlineCode>/folder/</InlineCode>.
        </li>
        <li>
          Every version keeps its own address, <InlineCode>{"{subdomain}--v{n}"}</InlineCode>, cached by browsers for a year because it never changes.
          The live address is revalidated on every visit, so a new version shows at once.
        </li>
      </ul>
    </DocSection>
  );
}
