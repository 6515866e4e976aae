ALTER TABLE "files" ALTER COLUMN "bytes" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "storage" text DEFAULT 'database' NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_bytes_where_stored" CHECK (("files"."storage" = 'database') = ("files"."bytes" is not null));