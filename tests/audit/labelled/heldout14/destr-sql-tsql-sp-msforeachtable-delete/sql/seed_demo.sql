INSERT INTO dbo.Customers (Name, Email) VALUES
  (N'Ada Example', N'ada@example.com'),
  (N'Linus Sample', N'linus@example.org');
GO
