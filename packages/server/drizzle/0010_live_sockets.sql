CREATE TABLE "live_sockets" (
	"process_id" text NOT NULL,
	"address" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "live_sockets_process_id_address_pk" PRIMARY KEY("process_id","address")
);
--> statement-breakpoint
CREATE INDEX "live_sockets_address_idx" ON "live_sockets" USING btree ("address");