import { notFound } from "next/navigation";
import { AccountSignUpForm } from "@/components/accounts/auth-form";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/accounts";
import { authMode, openSignUp } from "@/lib/auth/mode";
import { oidcSettings } from "@/lib/auth/oidc";
import { noAccountYet } from "@/lib/chat/account-pages";

export const dynamic = "force-dynamic";

// Accounts mode only: the first account (the admin's), or one by an admin's invitation link (/sign-up?invitation=…).
export default async function SignUpPage({
  searchParams,
}: {
  searchParams: Promise<{ invitation?: string | string[] }>;
}) {
  if (authMode() !== "accounts") notFound();
  const { invitation } = await searchParams;
  const token = typeof invitation === "string" && invitation.length <= 200 ? invitation : undefined;
  return (
    <AccountSignUpForm
      invitation={token}
      firstAccount={await noAccountYet()}
      openSignUp={openSignUp()}
      minPassword={MIN_PASSWORD_LENGTH}
      oidcName={oidcSettings()?.name}
    />
  );
}
