// The code field of the CLI sign-in page, for when the link's code is missing or wrong: the code
// the terminal shows, checked here by the server's own rule, handed to the page as "BCDF-GHJK".
import { useId } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { ArrowRight } from "lucide-react";
import { USER_CODE_LENGTH } from "../../../common/deviceLogin";
import { Button } from "../ui/Button";
import { FormField, describedBy } from "../ui/FormField";
import { Input } from "../ui/Input";
import { UserCodeForm as Schema, type UserCodeFields } from "./cliLogin";

export function UserCodeForm({ initial = "", onCode }: { initial?: string; onCode: (code: string) => void }) {
  const id = useId();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<UserCodeFields, unknown, { code: string }>({ resolver: zodResolver(Schema), defaultValues: { code: initial } });
  const error = errors.code?.message;

  return (
    <form
      noValidate
      onSubmit={handleSubmit(({ code }) => onCode(code))}
      className="grid gap-4 sm:grid-cols-[minmax(0,18rem)_auto] sm:items-start sm:justify-start"
    >
      <FormField id={`${id}-code`} label="Code from your terminal" error={error} hint={`${USER_CODE_LENGTH} letters, like BCDF-GHJK`}>
        <Input
          id={`${id}-code`}
          placeholder="XXXX-XXXX"
          autoComplete="one-time-code"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={20}
          className="font-mono text-base tracking-widest uppercase"
          {...describedBy(`${id}-code`, error, true)}
          {...register("code")}
        />
      </FormField>
      <div className="grid gap-2">
        {/* Keeps the button level with the field, whose label sits above it. */}
        <span className="hidden h-3.5 sm:block" aria-hidden />
        <Button type="submit">
          Continue
          <ArrowRight aria-hidden />
        </Button>
      </div>
    </form>
  );
}
