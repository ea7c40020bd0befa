import { useState } from "react";
import { useBringIntoView } from "../../../lib/useBringIntoView";
import { useForm, type FieldPath } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import type { z } from "zod";
import { AlertCircle, CheckCircle2, Loader2, Send } from "lucide-react";
import { ContactRequest, type ContactResponse } from "../../../../common/contact";
import { CONTACT_FORM_TEXT, CONTACT_TEXT } from "../../../../common/texts";
import { api, showFieldErrors } from "../../../lib/api";
import { Alert, AlertDescription, AlertTitle } from "../../ui/Alert";
import { Button } from "../../ui/Button";
import { FormField, describedBy } from "../../ui/FormField";
import { Input } from "../../ui/Input";
import { Textarea } from "../../ui/Textarea";

type ContactInput = z.input<typeof ContactRequest>;
type FieldName = FieldPath<ContactInput>;

const FIELDS: readonly FieldName[] = ["name", "email", "subject", "message"];
const EMPTY: ContactInput = { name: "", email: "", subject: "", message: "" };

export function ContactForm() {
  const [sent, setSent] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<ContactInput, unknown, ContactRequest>({ resolver: zodResolver(ContactRequest), defaultValues: EMPTY });
  const send = useMutation({
    mutationFn: (values: ContactRequest) => api<ContactResponse>("/api/contact", { method: "POST", json: values }),
  });

  const outcome = useBringIntoView<HTMLDivElement>(sent || send.isError);

  const onSubmit = handleSubmit(async (values) => {
    setSent(false);
    try {
      await send.mutateAsync(values);
      reset(EMPTY);
      setSent(true);
    } catch (error) {
      // The server validates with the same schema; if it still names a field, show it there too.
      showFieldErrors(error, (field) => FIELDS.find((name) => name === field), setError);
    }
  });

  const field = (name: FieldName) => ({
    id: `contact-${name}`,
    label: CONTACT_FORM_TEXT[name],
    error: errors[name]?.message,
  });
  const control = (name: FieldName) => ({
    id: `contact-${name}`,
    ...describedBy(`contact-${name}`, errors[name]?.message),
    ...register(name),
  });

  return (
    <section aria-labelledby="contact-form-title" className="rounded-xl border bg-card p-6 shadow-sm sm:p-8">
      <h2 id="contact-form-title" className="text-lg font-semibold tracking-tight">
        Write to us
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">We read every message and answer within office hours.</p>

      <form noValidate onSubmit={onSubmit} className="mt-6 grid gap-5">
        <div ref={outcome} tabIndex={-1} className="scroll-mt-24 outline-none empty:hidden">
          {sent ? (
            <Alert role="alert" variant="success">
              <CheckCircle2 aria-hidden />
              <AlertTitle>{CONTACT_TEXT.sent}</AlertTitle>
            </Alert>
          ) : null}
          {send.error ? (
            <Alert role="alert" variant="destructive">
              <AlertCircle aria-hidden />
              <AlertTitle>Your message was not sent</AlertTitle>
              <AlertDescription>{send.error.message}</AlertDescription>
            </Alert>
          ) : null}
        </div>

        <div className="grid gap-5 sm:grid-cols-2">
          <FormField {...field("name")}>
            <Input autoComplete="name" placeholder="Ada Lovelace" {...control("name")} />
          </FormField>
          <FormField {...field("email")}>
            <Input type="email" autoComplete="email" placeholder="ada@example.com" {...control("email")} />
          </FormField>
        </div>
        <FormField {...field("subject")}>
          <Input placeholder="How can we help?" {...control("subject")} />
        </FormField>
        <FormField {...field("message")}>
          <Textarea rows={6} placeholder="Tell us a little more…" className="min-h-36 resize-y" {...control("message")} />
        </FormField>

        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-xs text-muted-foreground">We only use your details to reply to you.</p>
          <Button type="submit" size="lg" disabled={send.isPending} className="w-full sm:w-auto">
            {send.isPending ? <Loader2 aria-hidden className="animate-spin" /> : <Send aria-hidden />}
            {CONTACT_FORM_TEXT.submit}
          </Button>
        </div>
      </form>
    </section>
  );
}
