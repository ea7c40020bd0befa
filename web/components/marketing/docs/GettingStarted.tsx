import { Link } from "react-router";
import { usePublicConfig } from "../../../lib/usePublicConfig";
import { DELETION_GRACE_DAYS } from "../../../../common/sites";
import { FOLDER_TEXT } from "../../../../common/uploads";
import { Callout, DocHeading, DocSection, InlineCode, Steps } from "./DocBits";

const linkClass = "font-medium text-primary underline-offset-4 hover:underline";

export function GettingStarted() {
  const { data: config } = usePublicConfig();
  const sitesDomain = config?.sitesDomain ?? "localhost";
  return (
    <DocSection
      id="getting-started"
      title="Getting started"
      lead="Berth puts HTML pages, PDFs and zipped static sites on the web in one step: upload a file and it is live on its own address."
    >
      <p>
        Each site you create gets a random five-letter subdomain, such as <InlineCode>{`kqzmv.${sitesDomain}`}</InlineCode>. Every upload is published
        as a new deployment, so you can see what changed and go back when you need to. There is nothing to build and no server to configure.
      </p>

      <DocHeading>Put a file online</DocHeading>
      <Steps
        steps={[
          {
            title: "Create an account",
            body: (
              <>
                <Link to="/auth/signup" className={linkClass}>
                  Sign up
                </Link>{" "}
                with your name, e-mail address and a password of at least 8 characters.
              </>
            ),
          },
          {
            title: "Confirm your e-mail address",
            body: "Open the message Berth sends you and follow the link. Then sign in.",
          },
          {
            title: "Create a site",
            body: (
              <>
                In the dashboard, open <strong>My Sites</strong> and choose <strong>New site</strong>. Give it a name; Berth assigns the subdomain.
              </>
            ),
          },
          {
            title: "Upload your file",
            body: (
              <>
                Drop in an HTML file, a PDF, a <InlineCode>.zip</InlineCode> of a static site or the site&apos;s folder itself. Images (JPG, PNG,
                GIF), CSS and JavaScript files are accepted too. Deploy, and the site is live at its address.
              </>
            ),
          },
        ]}
      />

      <DocHeading>Uploading a whole site</DocHeading>
      <p>
        Drop the folder that contains your <InlineCode>index.html</InlineCode> on the new-site page, or pick it with{" "}
        <strong>{FOLDER_TEXT.chooseFolder}</strong>: everything in it is published as one version, subfolders and all, and only the files Berth does
        not hold yet are sent, so dropping it again after a change sends just what changed. Files and folders whose names start with a dot (
        <InlineCode>.git</InlineCode>, <InlineCode>.env</InlineCode>) are left out, except <InlineCode>.well-known</InlineCode> at the top. In the
        Files tab, a folder dropped in the upload dialog lands in the folder you are looking at, and the rest of the site stays as it is.
      </p>
      <p>
        A zip works too: zip the folder that contains your <InlineCode>index.html</InlineCode>, not the folder around it, so that{" "}
        <InlineCode>index.html</InlineCode> sits at the top of the archive.
      </p>
      <p>
        Either way, link to styles, scripts and images with relative paths (<InlineCode>css/site.css</InlineCode> rather than{" "}
        <InlineCode>/css/site.css</InlineCode>) so they work at any address.
      </p>
      <Callout title={`Deleting is not forever, for ${DELETION_GRACE_DAYS} days`}>
        A deleted site is kept for {DELETION_GRACE_DAYS} days, during which you can restore it from the dashboard. After that it is removed for good.
      </Callout>
    </DocSection>
  );
}
