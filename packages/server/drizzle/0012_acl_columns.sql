UPDATE "objects" SET "read_perm" = CASE WHEN "public_read" THEN ARRAY['*', "owner_id"] ELSE ARRAY["owner_id"] END, "write_perm" = ARRAY["owner_id"];--> statement-breakpoint
ALTER TABLE "objects" ALTER COLUMN "read_perm" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "objects" ALTER COLUMN "write_perm" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "objects" DROP COLUMN "public_read";