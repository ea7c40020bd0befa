// LoadError in a page of its own for inBrowser.test.ts: a panel whose retry runs until the test
// sends "settle", with a second way out beside it, and a line inside a form.
import { useState } from "react";
import { LoadError } from "../../components/ui/LoadError";
import { mountFixture, onTestEvent, record } from "./mountFixture";

let settle: () => void = () => undefined;
onTestEvent("settle", () => settle());

function Panel() {
  const [retrying, setRetrying] = useState(false);
  return (
    <LoadError
      heading="h1"
      title="Failed to load site details"
      message="The database is not answering"
      retrying={retrying}
      onRetry={() => {
        record("panel retry");
        setRetrying(true);
        settle = () => setRetrying(false);
      }}
    >
      <a href="#sites">Back to sites</a>
    </LoadError>
  );
}

function Inline() {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        record("form submitted");
      }}
    >
      <LoadError inline title="Could not load your sessions" onRetry={() => record("inline retry")} />
    </form>
  );
}

mountFixture(
  <>
    <Panel />
    <Inline />
  </>,
);
