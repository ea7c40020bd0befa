// ConfirmDialog in a page of its own for inBrowser.test.ts: one dialog whose action waits for
// the test (a "settle" event: no detail resolves it, a string rejects it with that message), one
// that runs at once, one behind a typed name, and one whose trigger sits in another form.
import { useState } from "react";
import { ConfirmDialog } from "../../components/ui/ConfirmDialog";
import { mountFixture, onTestEvent, record } from "./mountFixture";

let settle: (failure: unknown) => void = () => undefined;
onTestEvent("settle", (failure) => settle(failure));

function waiting(): Promise<void> {
  record("slow");
  return new Promise((resolve, reject) => {
    settle = (failure) => (typeof failure === "string" ? reject(new Error(failure)) : resolve());
  });
}

function Slow() {
  const [open, setOpen] = useState(false);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={<button type="button">Delete slowly</button>}
      title="Delete the thing?"
      description="It goes for good."
      confirmLabel="Delete"
      pendingLabel="Deleting"
      destructive
      failureTitle="Failed to delete the thing"
      onConfirm={waiting}
    />
  );
}

function Quick() {
  const [open, setOpen] = useState(false);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={<button type="button">Ban quickly</button>}
      title="Ban them?"
      description="They are signed out."
      confirmLabel="Ban"
      pendingLabel="Banning"
      failureTitle="Failed to ban"
      failureDescription="Please try again later."
      onConfirm={() => record("quick")}
    />
  );
}

function Typed() {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={<button type="button">Delete by name</button>}
      title="Delete ada?"
      description="Type the name."
      confirmLabel="Delete ada"
      pendingLabel="Deleting"
      confirmDisabled={typed !== "ada"}
      failureTitle="Failed"
      onConfirm={() => record(`typed ${typed}`)}
    >
      <label>
        Name
        <input value={typed} onChange={(event) => setTyped(event.target.value)} />
      </label>
    </ConfirmDialog>
  );
}

function InsideAForm() {
  const [open, setOpen] = useState(false);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        record("outer form submitted");
      }}
    >
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        trigger={<button type="button">Remove password</button>}
        title="Remove the password?"
        description="Anyone can see it."
        confirmLabel="Remove"
        pendingLabel="Removing"
        failureTitle="Failed"
        onConfirm={() => record("inner")}
      />
    </form>
  );
}

mountFixture(
  <>
    <Slow />
    <Quick />
    <Typed />
    <InsideAForm />
  </>,
);
