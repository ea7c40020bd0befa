// The docs' command-line section: installing berth from this server, signing in, deploying, and
// the CI recipes. The recipes are the files in docs/recipes/, shown as they are, so the test that
// runs them (e2e/cli-recipes) checks what this page tells people to copy.
import { Link } from "react-router";
import githubActions from "../../../../docs/recipes/github-actions.yml?raw";
import gitlabCi from "../../../../docs/recipes/gitlab-ci.yml?raw";
import { Callout, CodeBlock, DocHeading, DocSection, InlineCode } from "./DocBits";

const linkClass = "font-medium text-primary underline-offset-4 hover:underline";

const COMMANDS: [string, string][] = [
  ["berth login", "Sign in through the browser: it shows a code, you approve it on the dashboard. --token reads a token from stdin instead."],
  ["berth deploy [dir]", "Publish a folder (the current one by default) as a new version. --site SUBDOMAIN, or --create NAME for a new site."],
  ["berth deploy --draft", "Publish a version on its own address only, to look at before it goes live."],
  ["berth promote SITE VERSION", "Make a draft live."],
  ["berth rollback SITE [VERSION]", "Make an earlier version live again; without a version, the one before the live one."],
  ["berth sites", "List your sites. berth deploys SITE lists a site's versions."],
  ["berth open SITE", "Open a site in the browser, and print its address."],
  ["berth whoami · berth logout", "Who the token acts for · forget the saved token."],
];

export function CliSection() {
  // This server's own address, so the commands run as they are.
  const origin = window.location.origin;
  return (
    <DocSection id="cli" title="Command line" lead="Deploy a folder from a terminal or a CI job with the berth command.">
      <p>
        <InlineCode>berth</InlineCode> needs Node.js 20 or newer and nothing else. Every Berth server offers the version that matches it:
      </p>
      <CodeBlock code={`npm install -g ${origin}/cli/berth-cli.tgz`} />
      <p>
        From a copy of the Berth source, <InlineCode>npm run build</InlineCode> builds it too: install it with{" "}
        <InlineCode>npm install -g ./cli</InlineCode>, or pack it with <InlineCode>npm pack ./cli</InlineCode>.
      </p>

      <DocHeading>Sign in and deploy</DocHeading>
      <CodeBlock
        code={[
          `berth login --server ${origin}`,
          `berth deploy ./public --create "My site"    # a new site`,
          "berth deploy ./public --site abcde          # a new version of it",
        ].join("\n")}
      />
      <p>
        <InlineCode>berth login</InlineCode> prints a code and a link. Open the link, check the code and approve it: the CLI gets its own API token,
        listed under{" "}
        <Link to="/dashboard/integrations" className={linkClass}>
          Integrations
        </Link>{" "}
        as “berth CLI on” your computer's name, where you can revoke it. The token is saved in <InlineCode>~/.config/berth/config.json</InlineCode>,
        readable by you only.
      </p>
      <p>
        A deploy sends only the files the server does not have yet, so changing one page of a large site uploads one page. It leaves out dot-files and
        dot-folders (<InlineCode>.git</InlineCode>, <InlineCode>.env</InlineCode>) except <InlineCode>.well-known</InlineCode>, the{" "}
        <InlineCode>berth.json</InlineCode> file, and whatever a <InlineCode>.berthignore</InlineCode> file lists, in{" "}
        <InlineCode>.gitignore</InlineCode>
        's syntax. The site's address is the only thing printed on standard output (with <InlineCode>--json</InlineCode>, one JSON object), so{" "}
        <InlineCode>url=$(berth deploy)</InlineCode> works in a script.
      </p>
      <dl className="divide-y rounded-xl border text-sm">
        {COMMANDS.map(([command, text]) => (
          <div key={command} className="grid gap-1 px-4 py-3 sm:grid-cols-[15rem_1fr] sm:gap-4">
            <dt className="font-mono text-[0.8125rem] font-medium break-words text-foreground">{command}</dt>
            <dd className="text-foreground/75">{text}</dd>
          </div>
        ))}
      </dl>

      <DocHeading>Settings</DocHeading>
      <p>
        Each setting comes from the first place that has it: a flag (<InlineCode>--server</InlineCode>, <InlineCode>--site</InlineCode>), the
        environment (<InlineCode>BERTH_SERVER</InlineCode>, <InlineCode>BERTH_TOKEN</InlineCode>, <InlineCode>BERTH_SITE</InlineCode>), a{" "}
        <InlineCode>berth.json</InlineCode> in the deployed folder or the current one, then the sign-in saved by <InlineCode>berth login</InlineCode>.
        Commit a <InlineCode>berth.json</InlineCode> with the project so that a plain <InlineCode>berth deploy</InlineCode> knows where to go; it
        never holds a token.
      </p>
      <CodeBlock label="berth.json" code={JSON.stringify({ server: origin, site: "abcde" }, null, 2)} />
      <p>
        Exit codes: 0 when done; 1 when it could not be done, with the reason on one line (a refused token, a file over your plan's limit, a full
        quota, a server out of reach); 2 when the command line has a mistake.
      </p>

      <DocHeading>Continuous deployment</DocHeading>
      <p>
        In CI, give the job <InlineCode>BERTH_SERVER</InlineCode> and <InlineCode>BERTH_TOKEN</InlineCode> (a token with the Deploy permission, for
        one site or all of them) as secret variables, and <InlineCode>BERTH_SITE</InlineCode>. Nothing is saved on the runner.
      </p>
      <CodeBlock label=".github/workflows/berth.yml" code={githubActions.trimEnd()} />
      <CodeBlock label=".gitlab-ci.yml" code={gitlabCi.trimEnd()} />
      <Callout title="Previews">
        <InlineCode>berth deploy --draft --json</InlineCode> publishes a version on its own address and prints it as <InlineCode>url</InlineCode>: a
        preview for a pull request, made live later with <InlineCode>berth promote</InlineCode>.
      </Callout>
    </DocSection>
  );
}
