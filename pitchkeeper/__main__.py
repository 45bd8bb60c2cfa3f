from pitchkeeper.launch import main

main()
