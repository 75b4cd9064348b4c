-- Failed sign-ins and bearer-token checks, counted by every instance on PostgreSQL (lib/auth/sign-in-limit.ts).
-- CreateTable
CREATE TABLE "AuthFailure" (
    "id" SERIAL NOT NULL,
    "key" TEXT NOT NULL,
    "account" TEXT NOT NULL DEFAULT '',
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AuthFailure_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AuthFailure_key_at_idx" ON "AuthFailure"("key", "at");

-- CreateIndex
CREATE INDEX "AuthFailure_at_idx" ON "AuthFailure"("at");
