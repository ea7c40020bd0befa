// The second step of a dialog that makes a secret (an API token, a webhook's signing secret): the
// secret, selectable and copyable, under the warning that it cannot be shown again, because the
// server keeps only a hash or a sealed copy of it.
import { TriangleAlert } from "lucide-react";
import { Alert, AlertDescription } from "../ui/Alert";
import { Button } from "../ui/Button";
import { CopyButton } from "../ui/CopyButton";
import { DialogClose } from "../ui/Dialog";
import { FormField, describedBy } from "../ui/FormField";
import { Input } from "../ui/Input";

export function SecretOnce(props: { id: string; secret: string; warning: string; label: string; hint: string; copyLabel: string }) {
  const { id, secret } = props;
  return (
    <div className="mt-5 grid gap-5">
      <Alert className="border-warning/40 bg-warning/10 [&>svg]:text-amber-700">
        <TriangleAlert aria-hidden />
        <AlertDescription className="text-foreground">{props.warning}</AlertDescription>
      </Alert>
      <FormField id={id} label={props.label} hint={props.hint}>
        <div className="flex items-center gap-2">
          <Input
            id={id}
            readOnly
            value={secret}
            {...describedBy(id, undefined, true)}
            spellCheck={false}
            className="font-mono text-[13px]"
            onFocus={(event) => event.currentTarget.select()}
          />
          <CopyButton value={secret} label={props.copyLabel} className="size-10 border" />
        </div>
      </FormField>
      <div className="flex justify-end">
        <DialogClose asChild>
          <Button type="button" className="w-full sm:w-auto">
            Done
          </Button>
        </DialogClose>
      </div>
    </div>
  );
}
