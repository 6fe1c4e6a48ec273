module example.com/pixshop

go 1.19
