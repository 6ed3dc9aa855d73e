import { redirect } from "next/navigation";

// Settings has one page so far; /settings is where people look for it.
export default function SettingsPage() {
  redirect("/settings/credentials");
}
