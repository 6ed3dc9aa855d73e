import { LoadingRows, Skeleton } from "@/components/ui/states";

export default function Loading() {
  return (
    <>
      <Skeleton className="h-9 w-48" />
      <LoadingRows rows={6} label="Loading orders" />
    </>
  );
}
